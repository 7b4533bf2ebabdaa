" Greets someone by name.
function! s:Greet(name) abort
  echo 'Hello ' . a:name
endfunction

call s:Greet('Kandev')
let s:width = strlen('demo')
" The deliberate finding: an assignment with nothing to assign.
let s:total =
