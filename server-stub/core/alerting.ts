// When an alert tells people (issue 39 item 4): the API monitor's rules and 定时任务's "failed N times" rule keep
// their state beside the rule (firing, whether the firing was told, when people were last told) and move it with a
// compare-and-set update in the store, so that however many instances look at once, one of them tells each event.
// A firing is told when it starts, and again while it lasts every ALERT_REPEAT_MINUTES; a firing that starts within
// ALERT_REPEAT_MINUTES of the last message is told when that time has passed (a flapping rule is not a flood); a
// recovery is told when the firing was.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../store/schema.js';

export interface AlertMemory {
  /** 1 while the rule fires */
  firing: number;
  /** 1 when people were told of this firing */
  notified: number;
  /** 'YYYY-MM-DD HH:mm:ss' of the last message, or null */
  lastNotified: string | null;
}

export type AlertTell = 'fire' | 'repeat' | 'recover';

/** The next state, and what to tell (null: nothing), given the stored state and whether the rule fires now. */
export function alertStep(mem: AlertMemory, firingNow: boolean, nowText: string, repeatCutoffText: string): { next: AlertMemory; tell: AlertTell | null } {
  const quietLongEnough = mem.lastNotified === null || mem.lastNotified <= repeatCutoffText;
  if (firingNow) {
    if (!mem.firing || !mem.notified) {
      if (quietLongEnough) return { next: { firing: 1, notified: 1, lastNotified: nowText }, tell: 'fire' };
      return { next: { firing: 1, notified: 0, lastNotified: mem.lastNotified }, tell: null };
    }
    if (quietLongEnough) return { next: { firing: 1, notified: 1, lastNotified: nowText }, tell: 'repeat' };
    return { next: mem, tell: null };
  }
  if (mem.firing) return { next: { firing: 0, notified: 0, lastNotified: mem.notified ? nowText : mem.lastNotified }, tell: mem.notified ? 'recover' : null };
  return { next: mem, tell: null };
}

/** Whether two states are the same (nothing to write). */
export const sameMemory = (a: AlertMemory, b: AlertMemory) => a.firing === b.firing && a.notified === b.notified && a.lastNotified === b.lastNotified;

/** The title's mark for each message. */
export const TELL_MARK: Record<AlertTell, string> = { fire: '【告警】', repeat: '【仍在告警】', recover: '【已恢复】' };

/** Where a kind of rule keeps its state: its table, the row's key, and the three columns of AlertMemory. */
export interface AlertColumns {
  table: keyof Database & string;
  key: string;
  firing: string;
  notified: string;
  lastNotified: string;
}

/**
 * The compare-and-set: the row's state becomes `next` only if it still is `mem`. True when this call moved it (so
 * this instance, and no other, tells the event).
 */
export async function moveAlert(db: Kysely<Database>, at: AlertColumns, key: number, mem: AlertMemory, next: AlertMemory): Promise<boolean> {
  const [firing, notified, last] = [sql.ref(at.firing), sql.ref(at.notified), sql.ref(at.lastNotified)];
  const lastWas = mem.lastNotified === null ? sql`${last} is null` : sql`${last} = ${mem.lastNotified}`;
  const r = await sql`update ${sql.table(at.table)} set ${firing} = ${next.firing}, ${notified} = ${next.notified}, ${last} = ${next.lastNotified}
    where ${sql.ref(at.key)} = ${key} and ${firing} = ${mem.firing} and ${notified} = ${mem.notified} and ${lastWas}`.execute(db);
  return Number(r.numAffectedRows ?? 0) === 1;
}
