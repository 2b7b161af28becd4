import { formatCount, formatPlaces } from '../../lib/format';
import type { Refusal } from '../../api/http';
import { lookupRefusalText } from '../../state/refusals';
import type { FileResult } from '../../state/types';
import { reasonCounts } from './reasons';

/**
 * The results' headline: what came of the run, in the seed's words when files are ready (a run the
 * person stopped says so).
 */
export function resultsHeadline(results: readonly FileResult[], stopped = false): string {
  const files = results.reduce((sum, result) => sum + result.files.length, 0);
  const converted = results.reduce((sum, result) => sum + result.counts.converted, 0);
  if (converted === 0)
    return stopped ? 'Conversion Stopped - Nothing Converted' : 'Nothing could be converted';
  return `Conversion ${stopped ? 'Stopped' : 'Complete'} - ${files} File(s) Ready`;
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
  stopped = false,
}: {
  results: readonly FileResult[];
  /** The person stopped the run (Cancel). */
  stopped?: boolean;
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
  const interrupted = reasons.find((group) => group.reason === 'interrupted')?.count ?? 0;
  // Looked up once and refused or failed: a stop during a retry pause leaves them so.
  const retryable = reasons
    .filter((group) => group.reason === 'throttled' || group.reason === 'unavailable')
    .reduce((sum, group) => sum + group.count, 0);
  if (missing === 0 && unreadable === 0 && !stopped) return null;

  return (
    <div className={`run-outcome ${converted === 0 ? 'is-empty' : 'is-partial'}`} role="status">
      {stopped && (
        <p className="run-outcome-title">
          {interrupted > 0
            ? `You stopped the conversion: ${formatPlaces(interrupted)} ${interrupted === 1 ? 'was not looked up. It is' : 'were not looked up. They are'} in the failed-places CSVs, and "Retry failed places" looks ${interrupted === 1 ? 'it' : 'them'} up in a new run.`
            : retryable > 0
              ? `You stopped the conversion before ${formatPlaces(retryable)} could be looked up again. ${retryable === 1 ? 'It is' : 'They are'} in the failed-places CSVs, and "Retry failed places" looks ${retryable === 1 ? 'it' : 'them'} up in a new run.`
              : 'You stopped the conversion after every place was looked up: the lists below are complete.'}
        </p>
      )}
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
          </strong>
          {/* The charge is for what the server found (product.md, Money), which may be more than
              what reached this page (an answer cut off on the way): only this is true of all. */}
          {paid && ' Places the server could not look up are not charged.'}
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
