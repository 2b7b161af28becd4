import { formatCount, formatPlaces } from '../../lib/format';
import type { Refusal } from '../../api/http';
import { lookupRefusalText } from '../../state/refusals';
import type { FileResult } from '../../state/types';
import { reasonCounts } from './reasons';

/** The results' headline: what came of the run, in the seed's words when files are ready. */
export function resultsHeadline(results: readonly FileResult[]): string {
  const files = results.reduce((sum, result) => sum + result.files.length, 0);
  const converted = results.reduce((sum, result) => sum + result.counts.converted, 0);
  if (converted === 0) return 'Nothing could be converted';
  return `Conversion Complete - ${files} File(s) Ready`;
}

/**
 * Under the headline: how many places could not be placed and, when lookups were refused,
 * unavailable or used up, says so plainly (the server's reasons, never silence), with the cause the
 * API gave for refusing them and what to do about it.
 */
export function RunOutcome({
  results,
  refusals = [],
  paid = false,
}: {
  results: readonly FileResult[];
  /** The API's refusals of the run's lookups: each named with what to do. */
  refusals?: readonly Refusal[];
  /** The run had a card payment (a refusal's advice differs for free runs). */
  paid?: boolean;
}) {
  const total = results.reduce((sum, result) => sum + result.counts.total, 0);
  const converted = results.reduce((sum, result) => sum + result.counts.converted, 0);
  const unreadable = results.filter((result) => result.skippedReason !== null).length;
  const reasons = reasonCounts(results.map((result) => result.unplaced));
  const refused = reasons.filter((group) =>
    ['throttled', 'unavailable', 'limit'].includes(group.reason),
  );
  const missing = total - converted;
  if (missing === 0 && unreadable === 0) return null;

  return (
    <div className={`run-outcome ${converted === 0 ? 'is-empty' : 'is-partial'}`} role="status">
      {missing > 0 && (
        <p className="run-outcome-title">
          {converted === 0
            ? `None of the ${formatPlaces(total)} could be placed on a map.`
            : `${formatCount(missing)} of ${formatPlaces(total)} could not be placed; the other ${formatCount(converted)} are in your files.`}
        </p>
      )}
      {unreadable > 0 && (
        <p>{`${unreadable === 1 ? 'One list' : `${unreadable} lists`} could not be read (see below).`}</p>
      )}
      {refused.map((group) => (
        <p key={group.reason} className="run-outcome-refused">
          <strong>
            {group.reason === 'throttled'
              ? `Google refused the lookups of ${formatPlaces(group.count)}.`
              : group.reason === 'unavailable'
                ? `The lookups of ${formatPlaces(group.count)} failed: the lookup service was unavailable.`
                : `${formatPlaces(group.count)} were not looked up: the lookup allowance was used up.`}
          </strong>{' '}
          You are charged only for places that were converted.
        </p>
      ))}
      {refusals.map((refusal) => (
        <p key={refusal.code} className="run-outcome-cause">
          {lookupRefusalText(refusal, paid)}
        </p>
      ))}
    </div>
  );
}
