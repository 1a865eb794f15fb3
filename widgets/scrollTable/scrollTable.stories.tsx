import type { Meta, StoryObj } from '@storybook/react-vite';
import { WidgetStory, widgetArgs, widgetArgTypes, type WidgetStoryArgs } from '../../stories/widgetStory';

const meta = {
  title: '部件/滚动表格',
  component: WidgetStory,
  args: widgetArgs('scrollTable'),
  argTypes: widgetArgTypes('scrollTable'),
} satisfies Meta<WidgetStoryArgs>;

export default meta;
type Story = StoryObj<typeof meta>;

/** 默认属性与示例数据。 */
export const Default: Story = {};

export const Compact: Story = { args: { width: 420, height: 200, rowHeight: 32, fontSize: 12, showIndex: false } };
