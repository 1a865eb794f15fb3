// Every kind of 定时任务, by the name the dictionary JOB_KIND gives it.
import { BASE_KINDS, type JobKind } from './kinds.js';
import { subscription } from './subscription.js';

export const JOB_KINDS: Record<string, JobKind> = { ...BASE_KINDS, subscription };

/** The kind of that name (never an inherited property such as constructor). */
export const kindOf = (name: unknown): JobKind | undefined => (typeof name === 'string' && Object.hasOwn(JOB_KINDS, name) ? JOB_KINDS[name] : undefined);
