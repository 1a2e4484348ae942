// server/discover names every revision the endpoint serves: SDK v2 lists only the modern ones (the 2025 revisions
// are reached through initialize), but the gateway serves those too, on the same URL and over stdio, and the
// revision's own example of a dual-era server's version list names both ("supported": ["2026-07-28",
// "2025-11-25"]). Clients choose from the list their own modern revisions, so the modern ones stay first.
import { SUPPORTED_PROTOCOL_VERSIONS, type DiscoverResult, type Server } from '@modelcontextprotocol/server';

/** The SDK's discover answer, an internal it calls by name on each request (`installDiscoverHandler`). */
interface Discovering {
  _ondiscover(): DiscoverResult;
}

export function discoverBothEras(server: Server): void {
  const s = server as unknown as Discovering;
  const modern = s._ondiscover.bind(server);
  s._ondiscover = () => {
    const result = modern();
    const legacy = SUPPORTED_PROTOCOL_VERSIONS.filter((v) => !result.supportedVersions.includes(v));
    return { ...result, supportedVersions: [...result.supportedVersions, ...legacy] };
  };
}
