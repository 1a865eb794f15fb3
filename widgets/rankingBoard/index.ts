// The rankingBoard kind's component, found by the registry (widgets/registry.ts) through this file.
export { RankingBoard as default } from './RankingBoard';
