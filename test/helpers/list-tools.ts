// Every page of tools/list, as a host loads it, with either SDK line's client.
export type ToolLister<T = { name: string; description?: string }> = { listTools(p?: { cursor?: string }): Promise<{ tools: T[]; nextCursor?: string }> };

export async function everyTool<T>(client: ToolLister<T>): Promise<T[]> {
  const all: T[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.listTools(cursor ? { cursor } : undefined);
    all.push(...page.tools);
    cursor = page.nextCursor;
  } while (cursor);
  return all;
}
