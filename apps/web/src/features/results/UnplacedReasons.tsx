import { formatCount } from '../../lib/format';
import type { UnplacedReason } from '../../worker/types';
import { FREE_LIMIT_ADVICE, reasonCounts } from './reasons';

/**
 * A list's places without coordinates, grouped by reason, each with what the person can do (`paid`:
 * the run had a card payment, whose allowance is what `limit` used up; else the free tier's).
 */
export function UnplacedReasons({
  unplaced,
  paid,
}: {
  unplaced: Partial<Record<UnplacedReason, number>>;
  paid: boolean;
}) {
  const groups = reasonCounts([unplaced]);
  if (groups.length === 0) return null;
  return (
    <div className="unplaced">
      <h4 className="unplaced-title">Why some places could not be placed</h4>
      <ul>
        {groups.map((group) => (
          <li key={group.reason}>
            <span className="unplaced-count">{formatCount(group.count)}</span>
            <span>
              <strong>{group.text}.</strong>{' '}
              {group.reason === 'limit' && !paid ? FREE_LIMIT_ADVICE(group.count) : group.advice}
            </span>
          </li>
        ))}
      </ul>
    </div>
  );
}
