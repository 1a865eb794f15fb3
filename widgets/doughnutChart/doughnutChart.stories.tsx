import type { Meta, StoryObj } from '@storybook/react-vite';
import { WidgetStory, widgetArgs, widgetArgTypes, type WidgetStoryArgs } from '../../stories/widgetStory';

const meta = {
  title: '部件/环形图',
  component: WidgetStory,
  args: widgetArgs('doughnutChart'),
  argTypes: widgetArgTypes('doughnutChart'),
} satisfies Meta<WidgetStoryArgs>;

export default meta;
type Story = StoryObj<typeof meta>;

/** 默认属性与示例数据。 */
export const Default: Story = {};

export const Thin: Story = { args: { width: 320, height: 280, innerRadius: 55, showLabel: false } };
