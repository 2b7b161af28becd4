/** Boots the page: one store, one worker handle, the effects, and the config from the API. */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createApi } from './api/client';
import { App } from './app/App';
import { createEffects } from './state/effects';
import { browserLocks, type PaymentNotes } from './state/lastPayment';
import { createAppStore } from './state/store';
import { createWorkerConverter } from './worker/converter';
import './styles.css';

/** `localStorage`, unless the browser refuses it (some private modes throw on access). */
function paymentNotes(): PaymentNotes | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

const store = createAppStore();
const effects = createEffects({
  store,
  converter: createWorkerConverter(),
  api: createApi(),
  apiBase: window.location.origin,
  notes: paymentNotes(),
  locks: browserLocks(),
});

void effects.loadConfig();
void effects.recallLastPayment();
// Back on the tab: a payment the last-visit card shows as held may have been settled meanwhile.
document.addEventListener('visibilitychange', () => {
  if (document.visibilityState === 'visible') void effects.refreshLastPayment();
});
window.addEventListener('pagehide', (event) => {
  if (!event.persisted) effects.dispose();
});

const root = document.getElementById('root');
if (!root) throw new Error('The page has no #root element.');
createRoot(root).render(
  <StrictMode>
    <App services={{ store, effects }} pathname={window.location.pathname} />
  </StrictMode>,
);
