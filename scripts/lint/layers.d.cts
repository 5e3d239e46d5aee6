// Types of layers.cjs (plain CommonJS: .dependency-cruiser.cjs requires it).
interface Layer {
  name: string;
  why: string;
  units: string[];
}
declare const layers: {
  LAYERS: Layer[];
  LAYER_OF: Record<string, number>;
  unitOf(file: string): string;
  unitPattern(unit: string): string;
};
export = layers;
