import type { Meta, StoryObj } from '@storybook/react-vite';
import { WidgetStory, widgetArgs, widgetArgTypes, type WidgetStoryArgs } from '../../stories/widgetStory';

const meta = {
  title: '部件/漏斗图',
  component: WidgetStory,
  args: widgetArgs('funnelChart'),
  argTypes: widgetArgTypes('funnelChart'),
} satisfies Meta<WidgetStoryArgs>;

export default meta;
type Story = StoryObj<typeof meta>;

/** 默认属性与示例数据。 */
export const Default: Story = {};


export const Ascending: Story = { args: { width: 360, height: 280, sort: 'ascending', showLegend: true } };
