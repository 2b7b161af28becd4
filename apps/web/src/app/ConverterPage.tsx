import { Toaster } from '../components/Toaster';
import { Footer } from '../features/footer/Footer';
import { HowToUse } from '../features/guide/HowToUse';
import { LastVisitCard } from '../features/lastvisit/LastVisitCard';
import { useGuideFirst } from '../features/guide/layout';
import { PrivacyNote } from '../features/guide/PrivacyNote';
import { Header } from '../features/header/Header';
import { ProcessingCard } from '../features/processing/ProcessingCard';
import { ResultsCard } from '../features/results/ResultsCard';
import { RunFailedCard } from '../features/results/RunFailedCard';
import { ListDialog } from '../features/selection/ListDialog';
import { UploadCard } from '../features/upload/UploadCard';
import { useNoDropNavigation } from '../lib/useNoDropNavigation';
import { useEffect } from 'react';
import { watchDialogHistory } from '../state/dialogHistory';
import { watchLeaveWarning } from '../state/leaveWarning';
import { useStoreApi } from './context';

/**
 * The converter page, its sections in the seed's order (section 2); on a phone the guide follows
 * the upload card, so Choose File is on the first screen (see `useGuideFirst`).
 */
export function ConverterPage() {
  useNoDropNavigation();
  const store = useStoreApi();
  // While the page is shown, the browser asks before the tab is left with work to lose.
  useEffect(() => watchLeaveWarning(store, window), [store]);
  // The browser's Back closes an open dialog instead of leaving the page.
  useEffect(() => watchDialogHistory(store, window), [store]);
  const guideFirst = useGuideFirst();
  return (
    <div className="page">
      <Header />
      <main className="container main">
        <LastVisitCard />
        {guideFirst && <HowToUse />}
        <PrivacyNote />
        <UploadCard />
        {!guideFirst && <HowToUse />}
        <ProcessingCard />
        <RunFailedCard />
        <ResultsCard />
        <ListDialog />
      </main>
      <Footer />
      <Toaster />
    </div>
  );
}
