import { Tooltip } from 'radix-ui';
import { NotFound } from '../features/notfound/NotFound';
import { type AppServices, AppProvider } from './context';
import { ConverterPage } from './ConverterPage';

/** The seed's tooltip open delay (section 9). */
export const TOOLTIP_DELAY_MS = 700;

/** The converter lives at `/`; every other path is the 404 screen (seed section 2). */
export function isConverterPath(pathname: string): boolean {
  return pathname === '/' || pathname === '/index.html';
}

export function App({ services, pathname }: { services: AppServices; pathname: string }) {
  return (
    <AppProvider services={services}>
      <Tooltip.Provider delayDuration={TOOLTIP_DELAY_MS}>
        {isConverterPath(pathname) ? <ConverterPage /> : <NotFound />}
      </Tooltip.Provider>
    </AppProvider>
  );
}
