/** Boots the page: one store, one worker handle, the effects, and the config from the API. */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createApi } from './api/client';
import { App } from './app/App';
import { createEffects } from './state/effects';
import { createAppStore } from './state/store';
import { createWorkerConverter } from './worker/converter';
import './styles.css';

const store = createAppStore();
const effects = createEffects({
  store,
  converter: createWorkerConverter(),
  api: createApi(),
  apiBase: window.location.origin,
});

void effects.loadConfig();
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
