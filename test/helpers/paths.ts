import path from 'node:path';

export const ROOT = path.resolve(import.meta.dirname, '..', '..');
export const MAIN = path.join(ROOT, 'dist', 'src', 'main.js');
export const bin = (name: string): string => path.join(ROOT, 'node_modules', '.bin', name);
