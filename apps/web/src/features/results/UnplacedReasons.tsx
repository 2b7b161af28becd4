import { formatCount } from '../../lib/format';
import type { UnplacedReason } from '../../worker/types';
import { reasonCounts } from './reasons';

/** A list's places without coordinates, grouped by reason, each with what the person can do. */
export function UnplacedReasons({
  unplaced,
}: {
  unplaced: Partial<Record<UnplacedReason, number>>;
}) {
  const groups = reasonCounts([unplaced]);
  if (groups.length === 0) return null;
  return (
    <div className="unplaced">
      <p className="unplaced-title">Why some places could not be placed</p>
      <ul>
        {groups.map((group) => (
          <li key={group.reason}>
            <span className="unplaced-count">{formatCount(group.count)}</span>
            <span>
              <strong>{group.text}.</strong> {group.advice}
            </span>
          </li>
        ))}
      </ul>
    </div>
  );
}
