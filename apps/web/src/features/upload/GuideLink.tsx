import { GUIDE_ID } from '../guide/HowToUse';

/**
 * On phones the guide follows the upload card (see `useGuideFirst`): this line points a first-time
 * visitor, who has no archive yet, down to it.
 */
export function GuideLink() {
  return (
    <p className="upload-guide-link">
      No archive yet? See <a href={`#${GUIDE_ID}`}>How to Use This Converter</a> below.
    </p>
  );
}
