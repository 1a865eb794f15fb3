// Browser entry.
import { createRoot } from 'react-dom/client';
import { call, get, post } from './core/request';
import { App } from './shell/App';

// A small handle for the browser console and the e2e tests: calls through the real request layer.
(window as unknown as { __DSC__: unknown }).__DSC__ = { request: { get, post, call } };

createRoot(document.getElementById('root')!).render(<App />);
