import { NotFound } from '../features/notfound/NotFound';
import { type AppServices, AppProvider } from './context';
import { ConverterPage } from './ConverterPage';

/** The converter lives at `/`; every other path is the 404 screen (seed section 2). */
export function isConverterPath(pathname: string): boolean {
  return pathname === '/' || pathname === '/index.html';
}

export function App({ services, pathname }: { services: AppServices; pathname: string }) {
  return (
    <AppProvider services={services}>
      {isConverterPath(pathname) ? <ConverterPage /> : <NotFound />}
    </AppProvider>
  );
}
