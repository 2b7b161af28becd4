import { Progress } from 'radix-ui';
import { useEffect, useRef, useState } from 'react';
import { useApp, useEffects } from '../../app/context';
import { CheckIcon } from '../../components/Icons';
import { formatSecondsLeft } from '../../lib/eta';
import { formatCount } from '../../lib/format';
import { useReveal } from '../../lib/useReveal';
import { useSettled } from '../../lib/useSettled';
import type { ProcessingStage, Progress as ProgressState } from '../../state/types';
import { placeLabel } from './placeLabel';

/** The seed's four steps, in order. */
export const PROCESSING_STEPS: readonly { stage: ProcessingStage; label: string }[] = [
  { stage: 'validating', label: 'Validating CSV file structure' },
  { stage: 'extracting', label: 'Extracting coordinates from URLs' },
  { stage: 'converting', label: 'Converting to KML format' },
  { stage: 'preparing', label: 'Preparing download' },
];

/**
 * "Looking up 212 of 588 places · about 30 s left" (product.md "Pace"). While the run pauses before
 * sending again the places that got no answer (the server or Google out for a moment), it says so
 * and counts down to it at `now`: "… · 215 could not be looked up yet: trying again in 18 s".
 */
export function lookupLine(progress: ProgressState, now: number = Date.now()): string {
  const { done, total, retry } = progress.lookups!;
  const count = `Looking up ${formatCount(Math.min(done, total))} of ${formatCount(total)} ${total === 1 ? 'place' : 'places'}`;
  if (retry) {
    const seconds = Math.max(1, Math.ceil((retry.at - now) / 1000));
    return `${count} · ${formatCount(retry.places)} could not be looked up yet: trying again in ${seconds} s`;
  }
  return progress.secondsLeft === null
    ? count
    : `${count} · ${formatSecondsLeft(progress.secondsLeft)}`;
}

/** The time now, again every second while `ticking` (a countdown on the card). */
function useNow(ticking: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!ticking) return;
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [ticking]);
  return now;
}

/**
 * Which list the run is at: `List 2 of 6: Want to go`, named as everywhere else (without `.csv` or
 * `.json`). While the places of several lists are looked up (in shared batches, counted together
 * under the step), no one list is being worked on: the line says they all are.
 */
export function listLine(progress: ProgressState): string {
  const { fileCount, fileIndex, fileName, lookups } = progress;
  if (lookups && lookups.done < lookups.total && fileCount > 1) {
    return `All ${fileCount} lists: their places are looked up together`;
  }
  const name = fileName.replace(/\.(?:csv|json)$/i, '');
  return `List ${Math.min(fileIndex + 1, fileCount)} of ${fileCount}: ${name}`;
}

/** How long a stage holds before a screen reader is told of it. */
export const ANNOUNCE_SETTLE_MS = 500;

/** Shown while the conversion runs (validating, extracting, converting, preparing). */
export function ProcessingCard() {
  const state = useApp((store) => store.state);
  if (!('progress' in state)) return null;
  return (
    <ProcessingView stage={state.status} progress={state.progress} cancelling={state.cancelling} />
  );
}

function ProcessingView({
  stage,
  progress,
  cancelling,
}: {
  stage: ProcessingStage;
  progress: ProgressState;
  cancelling: boolean;
}) {
  const effects = useEffects();
  const heading = useRef<HTMLHeadingElement>(null);
  useReveal(heading);
  const offersCancel = stage !== 'preparing';
  /** The focus is on Cancel (or Stopping…). */
  const cancelFocused = useRef(false);
  useEffect(() => {
    // Cancel goes once the files are handed over, and the focus it had falls to the page's top:
    // the card's heading takes it until the results take it in turn.
    if (offersCancel || !cancelFocused.current) return;
    cancelFocused.current = false;
    const active = document.activeElement;
    if (active === null || active === document.body) {
      heading.current?.focus({ preventScroll: true });
    }
  }, [offersCancel]);
  const now = useNow(progress.lookups?.retry !== undefined);
  const current = PROCESSING_STEPS.findIndex((step) => step.stage === stage);
  // What a screen reader is told: the stage, of which list when there are several, once it has
  // held for a moment (a run moving on to its next list passes three stages in milliseconds, which
  // were read as a run going back to validating).
  const label = PROCESSING_STEPS[current]?.label ?? '';
  const { fileCount, fileIndex } = progress;
  const announced = useSettled(
    cancelling
      ? 'Stopping the conversion'
      : fileCount > 1
        ? `List ${Math.min(fileIndex + 1, fileCount)} of ${fileCount}: ${label}`
        : label,
    ANNOUNCE_SETTLE_MS,
  );
  const percent = Math.round(progress.percent);
  const item = progress.currentItem === null ? '' : placeLabel(progress.currentItem);

  return (
    <section className="card processing" aria-labelledby="processing-title">
      <h2 id="processing-title" ref={heading} tabIndex={-1}>
        Converting your places
      </h2>
      {progress.fileCount > 0 && <p className="processing-file">{listLine(progress)}</p>}
      <ol className="processing-steps">
        {PROCESSING_STEPS.map((step, index) => {
          const phase = index < current ? 'done' : index === current ? 'current' : 'pending';
          return (
            <li
              key={step.stage}
              className={`processing-step is-${phase}`}
              aria-current={phase === 'current' ? 'step' : undefined}
            >
              <span className="step-marker" aria-hidden="true">
                {phase === 'done' ? <CheckIcon /> : index + 1}
              </span>
              <div className="step-body">
                <span className="step-label">{step.label}</span>
                {/* The check mark says it to the eye only. */}
                {phase === 'done' && <span className="visually-hidden"> (done)</span>}
                {step.stage === 'extracting' && stage === 'extracting' && progress.lookups && (
                  <span className="lookup-count">{lookupLine(progress, now)}</span>
                )}
                {step.stage === 'extracting' && stage === 'extracting' && item !== '' && (
                  <span className="current-item" dir="auto">
                    {item}
                  </span>
                )}
              </div>
            </li>
          );
        })}
      </ol>
      <div className="progress-row">
        <Progress.Root className="progress" value={percent} aria-label="Conversion progress">
          <Progress.Indicator
            className="progress-indicator"
            style={{ transform: `translateX(-${100 - percent}%)` }}
          />
        </Progress.Root>
        <span className="progress-value">{`${percent}%`}</span>
      </div>
      {offersCancel && (
        <div className="processing-cancel">
          {/* Stopping… keeps the focus Cancel had: it is aria-disabled and ignores presses, as a
              disabled button would drop the focus to the page's top. */}
          <button
            type="button"
            className="button"
            aria-disabled={cancelling || undefined}
            aria-describedby="processing-cancel-note"
            onFocus={() => (cancelFocused.current = true)}
            onBlur={() => (cancelFocused.current = false)}
            onClick={() => {
              if (!cancelling) void effects.cancel();
            }}
          >
            {cancelling ? 'Stopping…' : 'Cancel'}
          </button>
          <p id="processing-cancel-note" className="processing-cancel-note">
            {cancelling
              ? 'Stopping: the places not looked up yet are left out, and the lists are finished with what was found.'
              : 'Cancel stops the lookups and finishes the lists with what was found so far.'}
          </p>
        </div>
      )}
      <p className="visually-hidden" role="status">
        {announced}
      </p>
    </section>
  );
}
