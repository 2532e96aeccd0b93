// SSE text as events with their names (readSse keeps only the data): what a native lane's client must receive is the
// upstream's events, event lines included.
export interface NamedEvent {
  event?: string;
  data: string;
}

export function sseEvents(text: string): NamedEvent[] {
  const events: NamedEvent[] = [];
  for (const block of text.split('\n\n')) {
    let event: string | undefined;
    const data: string[] = [];
    for (const line of block.split('\n')) {
      if (line.startsWith('event: ')) event = line.slice(7);
      else if (line.startsWith('data: ')) data.push(line.slice(6));
    }
    if (data.length > 0)
      events.push(event === undefined ? { data: data.join('\n') } : { event, data: data.join('\n') });
  }
  return events;
}
