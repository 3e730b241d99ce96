module sprintfquoteold

go 1.13
