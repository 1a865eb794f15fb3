import type { Meta, StoryObj } from '@storybook/react-vite';
import { WidgetStory, widgetArgs, widgetArgTypes, type WidgetStoryArgs } from '../../stories/widgetStory';

const meta = {
  title: '部件/桑基图',
  component: WidgetStory,
  args: widgetArgs('sankeyChart'),
  argTypes: widgetArgTypes('sankeyChart'),
} satisfies Meta<WidgetStoryArgs>;

export default meta;
type Story = StoryObj<typeof meta>;

/** 默认属性与示例数据。 */
export const Default: Story = {};

export const Vertical: Story = { args: { width: 360, height: 420, orient: 'vertical', nodeWidth: 10 } };
