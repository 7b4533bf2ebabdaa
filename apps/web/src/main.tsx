import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './shell/App.js';
import { ServicesProvider } from './services/ServicesContext.js';
import { createWindowServices } from './services/windowServices.js';
import { initI18n, isLocale, setLocale } from './i18n/i18n.js';
import './styles/tokens.css';
import './styles/base.css';
import './styles.css';
import './styles/workbench.css';

// The window's services, made once and handed to React through context (never imported by views).
// First thing: their theme store paints <html data-theme> before anything can show.
const services = createWindowServices();
// `?locale=` pins a locale (handy for browser tests and screenshots); otherwise the user's setting.
const pinned = new URLSearchParams(window.location.search).get('locale');
await initI18n(isLocale(pinned) ? pinned : 'en');
void services.settings.load().then((settings) => {
  if (!isLocale(pinned) && settings.locale !== 'en') void setLocale(settings.locale);
});

const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <ServicesProvider services={services}>
        <App />
      </ServicesProvider>
    </StrictMode>,
  );
}
