import { useRef } from 'react';
import { useApp, useEffects } from '../../app/context';
import { useReveal } from '../../lib/useReveal';
import { ResultsMap } from '../map/ResultsMap';
import type { StateIn } from '../../state/types';
import { RETRYABLE_AGAIN } from '@placeport/converter/internal';
import { isConvertible } from '../../state/machine';
import { formatCount } from '../../lib/format';
import { DiscardConfirm } from './DiscardConfirm';
import { DownloadBar } from './DownloadBar';
import { FileResultPanel } from './FileResultPanel';
import { NextSteps } from './NextSteps';
import { reasonCounts } from './reasons';
import { PaymentOutcome } from './PaymentOutcome';
import { resultsHeadline, RunOutcome } from './RunOutcome';

/** The results card, shown once the status is complete. */
export function ResultsCard() {
  const state = useApp((store) => store.state);
  return state.status === 'complete' ? <ResultsView state={state} /> : null;
}

function ResultsView({ state }: { state: StateIn<'complete'> }) {
  const heading = useRef<HTMLHeadingElement>(null);
  const effects = useEffects();
  useReveal(heading);
  const hasFiles = state.results.some((result) => result.files.length > 0 || result.failed);
  const done = new Set([...state.converted, ...state.results.map((result) => result.path)]);
  const retryable = reasonCounts(state.results.map((result) => result.unplaced))
    .filter((group) => RETRYABLE_AGAIN.has(group.reason))
    .reduce((sum, group) => sum + group.count, 0);
  const moreLists = state.lists.some((list) => isConvertible(list) && !done.has(list.path));
  /** The run had a card payment: a used-up allowance was the payment's, not the free tier's. */
  const paid = state.authorization.kind !== 'free';

  return (
    <section className="card results" aria-labelledby="results-title">
      <h2 id="results-title" ref={heading} tabIndex={-1}>
        {resultsHeadline(state.results, state.stopped)}
      </h2>
      <RunOutcome
        results={state.results}
        refusals={state.refusals}
        paid={paid}
        stopped={state.stopped}
      />
      <PaymentOutcome
        authorization={state.authorization}
        capture={state.capture}
        totals={state.totals}
      />
      {hasFiles && (
        <p className="note-blue">
          Download your files now, before you close this tab: they are not stored anywhere, so they
          are gone once you leave.
        </p>
      )}
      <DownloadBar state={state} />
      <div className="file-results">
        {state.results.map((result) => (
          <FileResultPanel key={result.path} result={result} format={state.format} paid={paid} />
        ))}
      </div>
      <ResultsMap />
      <div className="results-actions">
        {retryable > 0 && (
          <button
            type="button"
            className="button primary"
            onClick={() => void effects.retryFailed()}
          >
            {`Retry failed places (${formatCount(retryable)})`}
          </button>
        )}
        <button type="button" className="button" onClick={() => effects.convertMore()}>
          {moreLists ? 'Convert more lists' : 'Back to the lists'}
        </button>
      </div>
      <NextSteps state={state} />
      <DiscardConfirm state={state} />
    </section>
  );
}
