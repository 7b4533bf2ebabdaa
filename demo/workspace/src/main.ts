import { createGreeter } from './greeter';

const greeter = createGreeter('Hello');
console.log(greeter.greet('Kandev'));

// A deliberate type error, so the diagnostics have something to show.
const count: number = 'three';
console.log(count);
