import { createContext, useContext, type ReactNode } from 'react';
import type { WindowServices } from './windowServices.js';

const ServicesContext = createContext<WindowServices | undefined>(undefined);

/** Hands the window's services to every component below (main.tsx; unit tests pass fakes). */
export function ServicesProvider({ services, children }: { services: WindowServices; children: ReactNode }) {
  return <ServicesContext.Provider value={services}>{children}</ServicesContext.Provider>;
}

/** The window's services; a component rendered outside a ServicesProvider is a wiring mistake. */
export function useServices(): WindowServices {
  const services = useContext(ServicesContext);
  if (!services) throw new Error('useServices() outside a ServicesProvider');
  return services;
}
