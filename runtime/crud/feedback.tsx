import { createContext, useContext } from 'react';
import type { MessageInstance } from 'antd/es/message/interface';
import type { HookAPI } from 'antd/es/modal/useModal';

/** message/modal instances bound to the page's ConfigProvider (hooks, not the static API). */
export interface Feedback { message: MessageInstance; modal: HookAPI }
export const FeedbackContext = createContext<Feedback | null>(null);
export function useFeedback(): Feedback {
  const f = useContext(FeedbackContext);
  if (!f) throw new Error('FeedbackContext missing');
  return f;
}
