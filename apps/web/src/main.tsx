import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App.js';
import { settingsStore } from './app/services.js';
import { initI18n, isLocale, setLocale } from './i18n/i18n.js';
import './app/themeStore.js';
import './styles/tokens.css';
import './styles/base.css';
import './styles.css';
import './styles/workbench.css';

// `?locale=` pins a locale (handy for browser tests and screenshots); otherwise the user's setting.
const pinned = new URLSearchParams(window.location.search).get('locale');
await initI18n(isLocale(pinned) ? pinned : 'en');
void settingsStore.load().then((settings) => {
  if (!isLocale(pinned) && settings.locale !== 'en') void setLocale(settings.locale);
});

const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}
