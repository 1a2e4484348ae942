// A process's memory as Linux counts it (/proc/<pid>/status) and as the gateway's V8 heap reports it (/metrics).
// Resident memory splits into anonymous pages (heaps, SQLite caches, malloc arenas) and file pages (the
// database file mapped by the reader threads, shared libraries): only the first is the process's own to keep.
import fs from 'node:fs';

export interface ProcMemory {
  rss: number;
  anon: number;
  file: number;
  threads: number;
}

const field = (status: string, name: string): number => Number(new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? 0);

export function procMemory(pid: number): ProcMemory {
  const s = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return { rss: field(s, 'VmRSS') * 1024, anon: field(s, 'RssAnon') * 1024, file: field(s, 'RssFile') * 1024 + field(s, 'RssShmem') * 1024, threads: field(s, 'Threads') };
}

/** The main thread's V8 heap (in use, and taken from the system) and the memory V8 knows of outside it (Buffers). */
export async function heapOf(url: string): Promise<{ heapUsed: number; heapTotal: number; external: number }> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const metric = (name: string) => Number(new RegExp(`^${name} (\\S+)`, 'm').exec(text)?.[1] ?? 0);
  return { heapUsed: metric('nodejs_heap_size_used_bytes'), heapTotal: metric('nodejs_heap_size_total_bytes'), external: metric('nodejs_external_memory_bytes') };
}

export const mb = (b: number): string => (b / 1024 / 1024).toFixed(0);
