import type { ReactNode } from 'react';

/** The seed's three steps (section 1), worded for Google Takeout and Google My Maps. */
const STEPS: readonly { title: string; body: ReactNode }[] = [
  {
    title: 'Export your saved places',
    body: (
      <>
        Open{' '}
        <a href="https://takeout.google.com/" target="_blank" rel="noreferrer">
          Google Takeout
        </a>
        , click <strong>Deselect all</strong>, select only <strong>Saved</strong>, export once and
        download the ZIP file.
      </>
    ),
  },
  {
    title: 'Upload, select and pay',
    body: 'Drop the ZIP file below, choose the lists to convert and authorize the payment: $0.10 per place, charged only for places that are converted.',
  },
  {
    title: 'Import into Google My Maps',
    body: 'Import each KML file into a map in Google My Maps, one layer per file.',
  },
];

/** The 'How to Use This Converter' card. */
export function HowToUse() {
  return (
    <section className="card" aria-labelledby="how-to-title">
      <h2 id="how-to-title">How to Use This Converter</h2>
      <ol className="steps">
        {STEPS.map((step, index) => (
          <li key={step.title}>
            <span className="step-number" aria-hidden="true">
              {index + 1}
            </span>
            <div>
              <p className="step-title">{step.title}</p>
              <p>{step.body}</p>
            </div>
          </li>
        ))}
      </ol>
    </section>
  );
}
