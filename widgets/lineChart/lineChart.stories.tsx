import type { Meta, StoryObj } from '@storybook/react-vite';
import { WidgetStory, widgetArgs, widgetArgTypes, type WidgetStoryArgs } from '../../stories/widgetStory';

const meta = {
  title: '部件/折线图',
  component: WidgetStory,
  args: widgetArgs('lineChart'),
  argTypes: widgetArgTypes('lineChart'),
} satisfies Meta<WidgetStoryArgs>;

export default meta;
type Story = StoryObj<typeof meta>;

/** 默认属性与示例数据。 */
export const Default: Story = {};

export const Smooth: Story = { args: { width: 480, height: 280, smooth: true, showLabel: true } };
