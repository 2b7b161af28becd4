/** The 'How to Use This Converter' card with the seed's three steps. */
export function HowToUse() {
  return (
    <section className="card" aria-labelledby="how-to-title">
      <h2 id="how-to-title">How to Use This Converter</h2>
      <ol className="steps">
        <li>
          <span className="step-number" aria-hidden="true">
            1
          </span>
          <div>
            <p className="step-title">Export your saved places</p>
            <p>
              Open{' '}
              <a href="https://takeout.google.com/" target="_blank" rel="noreferrer">
                Google Takeout
              </a>
              , click <strong>Deselect all</strong>, select only <strong>Saved</strong>, export once
              and download the ZIP file.
            </p>
          </div>
        </li>
        <li>
          <span className="step-number" aria-hidden="true">
            2
          </span>
          <div>
            <p className="step-title">Upload, select and pay</p>
            <p>
              Drop the ZIP file below, choose the lists to convert and authorize the payment: $0.10
              per place, charged only for places that are converted.
            </p>
          </div>
        </li>
        <li>
          <span className="step-number" aria-hidden="true">
            3
          </span>
          <div>
            <p className="step-title">Import into Google My Maps</p>
            <p>Import each KML file into a map in Google My Maps, one layer per file.</p>
          </div>
        </li>
      </ol>
    </section>
  );
}
