import type { Meta, StoryObj } from '@storybook/react-vite';
import { WidgetStory, widgetArgs, widgetArgTypes, type WidgetStoryArgs } from '../../stories/widgetStory';
import { inRunningForm } from '../../stories/formFieldStory';

const meta = {
  title: '表单控件/单行文本',
  component: WidgetStory,
  args: widgetArgs('formInput'),
  argTypes: widgetArgTypes('formInput'),
} satisfies Meta<WidgetStoryArgs>;

export default meta;
type Story = StoryObj<typeof meta>;

/** 设计器画布上的样子：默认属性，禁用。 */
export const OnCanvas: Story = {};

/** 预览与填写时：页面的 Formily 表单中，点提交按规则校验。 */
export const InForm: Story = { args: { required: true, patternPreset: '^1[3-9]\\d{9}$', label: '手机号码', placeholder: '请输入手机号码', patternMessage: '请输入正确的手机号码' }, decorators: [inRunningForm] };
