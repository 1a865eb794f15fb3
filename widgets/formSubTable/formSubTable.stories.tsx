import type { Meta, StoryObj } from '@storybook/react-vite';
import { WidgetStory, widgetArgs, widgetArgTypes, type WidgetStoryArgs } from '../../stories/widgetStory';
import { inRunningForm } from '../../stories/formFieldStory';

const meta = {
  title: '表单控件/子表',
  component: WidgetStory,
  args: widgetArgs('formSubTable'),
  argTypes: widgetArgTypes('formSubTable'),
} satisfies Meta<WidgetStoryArgs>;

export default meta;
type Story = StoryObj<typeof meta>;

/** 设计器画布上的样子：默认属性，禁用。 */
export const OnCanvas: Story = {};

/** 预览与填写时：页面的 Formily 表单中，点提交按规则校验。 */
export const InForm: Story = { args: { label: '采购明细', required: true, minRows: 1, maxRows: 5 }, decorators: [inRunningForm] };
