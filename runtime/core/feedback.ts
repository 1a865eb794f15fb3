// Where the request layer shows messages and confirm boxes. Defaults to antd's static API;
// the shell swaps in App.useApp()'s instances so they follow the theme.
import { message, Modal } from 'antd';
import type { MessageInstance } from 'antd/es/message/interface';
import type { ModalFuncProps } from 'antd';

export interface Feedback {
  message: Pick<MessageInstance, 'error' | 'success' | 'warning' | 'info' | 'loading'>;
  modal: { confirm(props: ModalFuncProps): unknown };
}

const current: Feedback = { message, modal: Modal };

export function setFeedback(next: Partial<Feedback>): void {
  Object.assign(current, next);
}

export function getFeedback(): Feedback {
  return current;
}
