/** The seed's 'Next Steps' for importing into Google My Maps. */
export function NextSteps() {
  return (
    <div className="next-steps">
      <h3>Next Steps</h3>
      <ol>
        <li>
          Go to{' '}
          <a href="https://www.google.com/maps/d/" target="_blank" rel="noreferrer">
            Google My Maps
          </a>
          .
        </li>
        <li>
          Click <strong>Create a New Map</strong>.
        </li>
        <li>
          Click <strong>Import</strong> and upload your KML files, one per layer.
        </li>
        <li>Customize your map and share it.</li>
      </ol>
    </div>
  );
}
