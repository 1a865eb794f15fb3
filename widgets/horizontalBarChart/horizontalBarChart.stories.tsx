import type { Meta, StoryObj } from '@storybook/react-vite';
import { WidgetStory, widgetArgs, widgetArgTypes, type WidgetStoryArgs } from '../../stories/widgetStory';

const meta = {
  title: '部件/条形图',
  component: WidgetStory,
  args: widgetArgs('horizontalBarChart'),
  argTypes: widgetArgTypes('horizontalBarChart'),
} satisfies Meta<WidgetStoryArgs>;

export default meta;
type Story = StoryObj<typeof meta>;

/** 默认属性与示例数据。 */
export const Default: Story = {};

export const NoLabels: Story = { args: { width: 480, height: 280, showLabel: false, colors: ['#36CBCB'] } };
