// "Did you mean …?" for the CLI: the valid word nearest to a mistyped one, when it is near enough to be a typo.
// Distance is optimal string alignment (Levenshtein plus adjacent transpositions), so `emial` is one edit from
// `email`, as a person sees it.

function editDistance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) rows[0][j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      rows[i][j] = Math.min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        rows[i][j] = Math.min(rows[i][j], rows[i - 2][j - 2] + 1);
    }
  }
  return rows[a.length][b.length];
}

/**
 * The candidate closest to `word` (case-insensitive), or undefined when none is a plausible typo: at most two edits,
 * and fewer than half the word's letters, so `--xyz` suggests nothing rather than any three-letter option. A word
 * that is the start of exactly one candidate (`--man` → `--manage`) counts as near.
 */
export function closestWord(word: string, candidates: readonly string[]): string | undefined {
  const typed = word.toLowerCase();
  const prefixed = candidates.filter((c) => typed.length >= 2 && c.toLowerCase().startsWith(typed));
  if (prefixed.length === 1) return prefixed[0];
  let best: { word: string; distance: number } | undefined;
  for (const candidate of candidates) {
    const distance = editDistance(typed, candidate.toLowerCase());
    if (best === undefined || distance < best.distance) best = { word: candidate, distance };
  }
  const allowed = Math.min(2, Math.ceil(typed.length / 2) - 1);
  return best && best.distance <= allowed ? best.word : undefined;
}
