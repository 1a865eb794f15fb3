import type { Meta, StoryObj } from '@storybook/react-vite';
import { WidgetStory, widgetArgs, widgetArgTypes, type WidgetStoryArgs } from '../../stories/widgetStory';

const meta = {
  title: '部件/饼图',
  component: WidgetStory,
  args: widgetArgs('pieChart'),
  argTypes: widgetArgTypes('pieChart'),
} satisfies Meta<WidgetStoryArgs>;

export default meta;
type Story = StoryObj<typeof meta>;

/** 默认属性与示例数据。 */
export const Default: Story = {};

export const NoLegend: Story = { args: { width: 320, height: 280, showLegend: false } };
