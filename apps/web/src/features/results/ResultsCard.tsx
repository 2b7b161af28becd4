import { useRef } from 'react';
import { useApp } from '../../app/context';
import { useReveal } from '../../lib/useReveal';
import type { AppState } from '../../state/types';
import { DownloadBar } from './DownloadBar';
import { FileResultPanel } from './FileResultPanel';
import { NextSteps } from './NextSteps';
import { PaymentOutcome } from './PaymentOutcome';

/** The results card, shown once the status is complete. */
export function ResultsCard() {
  const state = useApp((store) => store.state);
  return state.status === 'complete' ? <ResultsView state={state} /> : null;
}

function ResultsView({ state }: { state: Extract<AppState, { status: 'complete' }> }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useReveal(heading);
  const fileCount = state.results.reduce((sum, result) => sum + result.files.length, 0);

  return (
    <section className="card results" aria-labelledby="results-title">
      <h2
        id="results-title"
        ref={heading}
        tabIndex={-1}
      >{`Conversion Complete - ${fileCount} File(s) Ready`}</h2>
      <PaymentOutcome
        authorization={state.authorization}
        capture={state.capture}
        totals={state.totals}
      />
      <p className="note-blue">
        Download your files now, before you close this tab: they are not stored anywhere, so they
        are gone once you leave.
      </p>
      <DownloadBar state={state} />
      <div className="file-results">
        {state.results.map((result) => (
          <FileResultPanel key={result.path} result={result} format={state.format} />
        ))}
      </div>
      <NextSteps />
    </section>
  );
}
