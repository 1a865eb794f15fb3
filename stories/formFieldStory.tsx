// Form-control stories: a field as the designer draws it (disabled) and as a form runs it (enabled, one
// Formily form, a submit button that runs the field's rules).
import type { Decorator } from '@storybook/react-vite';
import { FormRunProvider } from '../widgets/formField/context';
import { WidgetView, getWidgetKind } from '../widgets';

const noSubmit = async () => '已校验（示例不提交）';
const noUpload = async () => {
  throw new Error('示例中不上传');
};

/** Runs the story inside a form, with the kind's submit button under it. */
export const inRunningForm: Decorator = (Story) => (
  <FormRunProvider mode="preview" submit={noSubmit} uploadImage={noUpload}>
    <div style={{ background: '#1D202D', padding: 16, width: 460 }}>
      <Story />
      <div style={{ width: 200, height: 40, marginTop: 28, position: 'relative' }}>
        <WidgetView widgetName="formSubmit" viewProps={{ ...getWidgetKind('formSubmit')!.defaults.viewProps, width: 200, height: 40 }} datasourceProps={getWidgetKind('formSubmit')!.defaults.datasourceProps} />
      </div>
    </div>
  </FormRunProvider>
);
