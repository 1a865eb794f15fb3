import { Form, type FormItemProps } from 'antd';

const FULL = { span: 24 };

/** A labelled row laid out like rjsf-antd's own fields (label above, no colon). */
export function PanelItem(props: FormItemProps) {
  return <Form.Item labelCol={FULL} wrapperCol={FULL} colon={false} {...props} />;
}
