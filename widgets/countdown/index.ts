// The countdown kind's component, found by the registry (widgets/registry.ts) through this file.
export { Countdown as default } from './Countdown';
