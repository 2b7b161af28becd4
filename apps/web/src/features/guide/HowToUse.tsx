import { PRICE_PER_PLACE_CENTS } from '@placeport/contract';
import type { ReactNode } from 'react';
import { ComputerIcon } from '../../components/Icons';
import { formatUsd } from '../../lib/money';
import { useGuideFirst } from './layout';
import './guide.css';

/** The guide's id, for links to it (the upload card's on phones). */
export const GUIDE_ID = 'how-to-use';

/**
 * Said where the guide sends the visitor to My Maps: its import exists only in the desktop web
 * app (Google ended the My Maps phone app; the Google Maps app shows such maps but cannot import).
 */
export const MY_MAPS_COMPUTER_NOTE =
  'Importing into Google My Maps needs a computer: My Maps imports files only in a desktop web browser. Afterwards the Google Maps app on your phone can show the map.';

interface Step {
  title: string;
  body: ReactNode;
  /** A caution under the step, set apart so it is not read over. */
  note?: string;
}

/**
 * The seed's three steps (section 1), worded for Google Takeout and Google My Maps. Step 2 points
 * to the upload card, which is below the guide at desktop widths and above it on a phone.
 */
function steps(uploadBelow: boolean): readonly Step[] {
  return [
    {
      title: 'Export your saved places',
      body: (
        <>
          Open{' '}
          <a href="https://takeout.google.com/" target="_blank" rel="noreferrer">
            Google Takeout
          </a>
          , click <strong>Deselect all</strong>, then select <strong>Saved</strong> for your lists
          and <strong>Maps (your places)</strong> for your starred places. Export once and download
          the ZIP file.
        </>
      ),
    },
    {
      title: 'Upload, select and pay',
      body: `${uploadBelow ? 'Drop the ZIP file below' : 'Upload the ZIP file above'}, choose the lists to convert and authorize the payment: ${formatUsd(PRICE_PER_PLACE_CENTS)} per place, charged only for places that are converted.`,
    },
    {
      title: 'Import into Google My Maps',
      body: 'Import each KML file into a map in Google My Maps, one layer per file.',
      note: MY_MAPS_COMPUTER_NOTE,
    },
  ];
}

/** The 'How to Use This Converter' card. */
export function HowToUse() {
  const uploadBelow = useGuideFirst();
  return (
    <section id={GUIDE_ID} className="card" aria-labelledby="how-to-title">
      <h2 id="how-to-title">How to Use This Converter</h2>
      <ol className="steps">
        {steps(uploadBelow).map((step, index) => (
          <li key={step.title}>
            <span className="step-number" aria-hidden="true">
              {index + 1}
            </span>
            <div>
              <p className="step-title">{step.title}</p>
              <p>{step.body}</p>
              {step.note !== undefined && (
                <p className="step-note">
                  <ComputerIcon className="step-note-icon" />
                  <span>{step.note}</span>
                </p>
              )}
            </div>
          </li>
        ))}
      </ol>
    </section>
  );
}
