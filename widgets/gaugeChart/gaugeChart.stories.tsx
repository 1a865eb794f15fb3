import type { Meta, StoryObj } from '@storybook/react-vite';
import { WidgetStory, widgetArgs, widgetArgTypes, type WidgetStoryArgs } from '../../stories/widgetStory';

const meta = {
  title: '部件/仪表盘',
  component: WidgetStory,
  args: widgetArgs('gaugeChart'),
  argTypes: widgetArgTypes('gaugeChart'),
} satisfies Meta<WidgetStoryArgs>;

export default meta;
type Story = StoryObj<typeof meta>;

/** 默认属性与示例数据。 */
export const Default: Story = {};


export const Temperature: Story = { args: { width: 300, height: 300, min: -20, max: 60, unit: '℃', progressColor: '#F2637B' } };
