// Reads a gateway SSE response into its data payloads, as a client would.
export interface SseRead {
  events: string[];
  chunks: any[];
  done: boolean;
  comments: string[];
}

export async function readSse(res: Response): Promise<SseRead> {
  const text = await res.text();
  const events: string[] = [];
  const comments: string[] = [];
  for (const block of text.split('\n\n')) {
    if (!block.trim()) continue;
    const data: string[] = [];
    for (const line of block.split('\n')) {
      if (line.startsWith(':')) comments.push(line);
      else if (line.startsWith('data: ')) data.push(line.slice(6));
    }
    if (data.length) events.push(data.join('\n'));
  }
  const done = events[events.length - 1] === '[DONE]';
  const chunks = events.filter((e) => e !== '[DONE]').map((e) => JSON.parse(e));
  return { events, chunks, done, comments };
}
