import { Toaster } from '../components/Toaster';
import { Footer } from '../features/footer/Footer';
import { HowToUse } from '../features/guide/HowToUse';
import { PrivacyNote } from '../features/guide/PrivacyNote';
import { Header } from '../features/header/Header';
import { ProcessingCard } from '../features/processing/ProcessingCard';
import { ResultsCard } from '../features/results/ResultsCard';
import { ListDialog } from '../features/selection/ListDialog';
import { UploadCard } from '../features/upload/UploadCard';
import { useNoDropNavigation } from '../lib/useNoDropNavigation';
import { useLeaveWarning } from './useLeaveWarning';

/** The converter page, its sections in the seed's order (section 2). */
export function ConverterPage() {
  useNoDropNavigation();
  useLeaveWarning();
  return (
    <div className="page">
      <Header />
      <main className="container main">
        <HowToUse />
        <PrivacyNote />
        <UploadCard />
        <ProcessingCard />
        <ResultsCard />
        <ListDialog />
      </main>
      <Footer />
      <Toaster />
    </div>
  );
}
