// The wordCloud kind's component, found by the registry (widgets/registry.ts) through this file.
export { WordCloud as default } from './WordCloud';
