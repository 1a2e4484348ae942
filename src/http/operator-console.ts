// The operator console lives in src/http/console/ (one concern per file); this is its entry for the server.
export { mountOperatorConsole } from './console/mount.js';
