import type { Meta, StoryObj } from '@storybook/react-vite';
import { WidgetStory, widgetArgs, widgetArgTypes, type WidgetStoryArgs } from '../../stories/widgetStory';

const meta = {
  title: '部件/内嵌网页',
  component: WidgetStory,
  args: widgetArgs('iframeView'),
  argTypes: widgetArgTypes('iframeView'),
} satisfies Meta<WidgetStoryArgs>;

export default meta;
type Story = StoryObj<typeof meta>;

/** 默认属性与示例数据。 */
export const Default: Story = {};

/** 非 http(s) 地址不会加载，只显示提示。 */
export const Refused: Story = { args: { url: 'javascript:alert(1)' } };
