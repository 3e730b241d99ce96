package fileperop
