import type { ConversionResult } from '../core/types.js';

/** Per list, what the CLI's `--json` prints. */
export interface ListSummaryLine {
  name: string;
  path: string;
  total: number;
  converted: number;
  skipped: number;
  resolved: number;
  skippedReason?: string;
  files: string[];
}

export interface CliSummary {
  lists: ListSummaryLine[];
  totals: { total: number; converted: number; skipped: number };
}

export function summarize(
  results: readonly ConversionResult[],
  written: ReadonlyMap<string, string[]>,
): CliSummary {
  const lists = results.map((result) => ({
    name: result.listName,
    path: result.path,
    total: result.stats.totalPlaces,
    converted: result.stats.converted,
    skipped: result.stats.skipped,
    resolved: result.resolvedCount ?? 0,
    ...(result.skippedReason ? { skippedReason: result.skippedReason } : {}),
    files: written.get(result.path) ?? [],
  }));
  const totals = lists.reduce(
    (sum, list) => ({
      total: sum.total + list.total,
      converted: sum.converted + list.converted,
      skipped: sum.skipped + list.skipped,
    }),
    { total: 0, converted: 0, skipped: 0 },
  );
  return { lists, totals };
}

/** The readable summary printed without `--json`. */
export function formatSummary(summary: CliSummary, outDir: string): string {
  const lines = summary.lists.map((list) => {
    if (list.skippedReason) return `✗ ${list.name}: skipped — ${list.skippedReason}`;
    const files = list.files.length > 0 ? `\n    ${list.files.join('\n    ')}` : '';
    return `✓ ${list.name}: ${list.converted} of ${list.total} places converted${list.skipped ? `, ${list.skipped} without coordinates` : ''}${files}`;
  });
  const { total, converted } = summary.totals;
  return [...lines, '', `${converted} of ${total} places converted. Files are in ${outDir}`].join(
    '\n',
  );
}
