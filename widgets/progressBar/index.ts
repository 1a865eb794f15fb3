// The progressBar kind's component, found by the registry (widgets/registry.ts) through this file.
export { ProgressBar as default } from './ProgressBar';
