import type { Meta, StoryObj } from '@storybook/react-vite';
import { App } from 'antd';
import { useState } from 'react';
import { Designer } from '../../designer/Designer';
import { EditableCanvas } from '../../designer/canvas/EditableCanvas';
import { ContextMenu } from '../../designer/canvas/ContextMenu';
import { TemplateList } from '../../designer/left/TemplateList';
import { LayerList } from '../../designer/left/LayerList';
import { createDesigner } from '../../designer/editor/store';
import { widgetCatalogue } from '../../widgets';
import { memoryServices, sampleWidgets } from './memoryServices';

// 设计器的各个部分：组件模板、图层列表、可编辑画布、右键菜单，以及完整的设计器（数据保存在内存里）。
const meta = {
  title: '设计器/大屏设计器',
  parameters: { layout: 'fullscreen' },
} satisfies Meta;

export default meta;
type Story = StoryObj<typeof meta>;

function withDesigner<T>(render: (d: ReturnType<typeof createDesigner>) => T) {
  function Host() {
    const [d] = useState(() => {
      const designer = createDesigner();
      designer.load({ canvas: { width: 1920, height: 1080, backgroundColor: '', refreshSeconds: null }, widgets: sampleWidgets() });
      designer.select(['demo-title']);
      return designer;
    });
    return <App>{render(d) as React.ReactNode}</App>;
  }
  return Host;
}

export const Templates: Story = {
  name: '组件模板',
  render: () => (
    <div style={{ width: 240, padding: 8 }}>
      <TemplateList catalogue={widgetCatalogue()} used={{ barChart: 2 }} />
    </div>
  ),
};

export const Layers: Story = {
  name: '图层列表',
  render: withDesigner((d) => (
    <div style={{ width: 240, padding: 8 }}>
      <LayerList designer={d} />
    </div>
  )),
};

export const Canvas: Story = {
  name: '可编辑画布',
  render: withDesigner((d) => (
    <div style={{ display: 'flex', height: 700 }}>
      <EditableCanvas designer={d} scale={0.5} pageId="1" onDropTemplate={() => undefined} />
    </div>
  )),
};

export const Menu: Story = {
  name: '右键菜单',
  render: withDesigner((d) => (
    <div style={{ position: 'relative', height: 240 }}>
      <ContextMenu designer={d} state={{ id: 'demo-title', x: 20, y: 20 }} pageId="1" onClose={() => undefined} />
    </div>
  )),
};

export const Whole: Story = {
  name: '完整设计器',
  render: () => (
    <App>
      <Designer pageId="1" services={memoryServices(sampleWidgets())} config={{ kind: 'screen', noun: '大屏', previewUrl: () => '#' }} onBack={() => undefined} />
    </App>
  ),
};
