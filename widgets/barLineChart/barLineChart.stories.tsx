import type { Meta, StoryObj } from '@storybook/react-vite';
import { WidgetStory, widgetArgs, widgetArgTypes, type WidgetStoryArgs } from '../../stories/widgetStory';

const meta = {
  title: '部件/柱线混合图',
  component: WidgetStory,
  args: widgetArgs('barLineChart'),
  argTypes: widgetArgTypes('barLineChart'),
} satisfies Meta<WidgetStoryArgs>;

export default meta;
type Story = StoryObj<typeof meta>;

/** 默认属性与示例数据。 */
export const Default: Story = {};

export const WithLabels: Story = { args: { width: 520, height: 300, showLabel: true, smooth: false, barWidth: 20 } };
